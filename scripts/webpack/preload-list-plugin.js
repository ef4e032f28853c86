// The host's preload.json: what each page needs, announced by the static server before any script asks for it.
/**
 * The host's `preload.json`, read by the static server to announce with a Link header what a page needs before
 * any script asks for it (docs/architecture.md, "Build and serving"): the files of the host's start-up (its entry,
 * the `bootstrap` chunk group and the shared packages it provides) and, per route of host/src/routes/route-table.ts,
 * the remote modules it shows.
 */
class PreloadListPlugin {
  /** @param {string} routeTable the host's route-table.ts */
  constructor(routeTable) {
    this.routeTable = routeTable;
  }

  routes() {
    const ts = require('typescript');
    const source = require('node:fs').readFileSync(this.routeTable, 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } });
    /** @typedef {{ path: string, guard?: string, remote: string, module: string, layout?: string }} Route */
    /** @type {{ exports: { ROUTES?: Route[], ADMIN_LAYOUT?: { module: string } } }} */
    const table = { exports: {} };
    new Function('module', 'exports', 'require', outputText)(table, table.exports, require);
    const { ROUTES = [], ADMIN_LAYOUT } = table.exports;
    return ROUTES.map((route) => ({
      path: route.path,
      // A sign-in page is prerendered whole: its largest paint is in the document, not in the remote's page.
      prerendered: route.guard === 'guest',
      remote: route.remote,
      modules: route.layout === 'admin' && ADMIN_LAYOUT ? [ADMIN_LAYOUT.module, route.module] : [route.module],
    }));
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PreloadListPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'PreloadListPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          // The entry first (the page's starter runs it once the page is painted), then what it starts.
          const files = new Set(compilation.entrypoints.get('main')?.getFiles() ?? []);
          for (const chunk of compilation.namedChunkGroups.get('bootstrap')?.chunks ?? [])
            for (const file of chunk.files) files.add(file);
          // The shared packages the host provides, loaded by the federation runtime before bootstrap runs: the
          // chunks its provide modules load, not the consume fallbacks (same code in other chunks, used only when
          // nobody provides a package).
          for (const module of compilation.modules) {
            if (module.constructor.name !== 'ProvideSharedModule') continue;
            for (const block of module.blocks) {
              for (const chunk of compilation.chunkGraph.getBlockChunkGroup(block)?.chunks ?? [])
                for (const file of chunk.files) files.add(file);
            }
          }
          const scripts = [...files].filter((f) => f.endsWith('.js'));
          const body = JSON.stringify({ scripts, routes: this.routes() }, null, 2);
          compilation.emitAsset('preload.json', new compiler.webpack.sources.RawSource(body));
        },
      );
    });
  }
}

module.exports = { PreloadListPlugin };
