// A TypeScript transformer (ts-loader's getCustomTransformers) that gives every styled component a stable id:
// `styled.div`…`` becomes `styled.div.withConfig({ componentId: 'Name-hash' })`…``, the hash from the file's path
// in the repository and the component's place in it. styled-components 6 otherwise numbers components in the order
// their modules run, and the prerendered pages (scripts/lib/prerender.mjs, a Node bundle) and the browser (federated
// chunks, another order) would name the same rule differently: hydration would then keep the server's classes for
// rules the browser never wrote. docs/decisions/0026-prerendered-sign-in-pages.md.
const { createHash } = require('node:crypto');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '../..');

/**
 * The local name of styled-components' default import in a file, or null.
 * @param {ts.SourceFile} file @returns {string | null}
 */
function styledName(file) {
  for (const statement of file.statements) {
    if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text === 'styled-components' &&
      statement.importClause?.name
    )
      return statement.importClause.name.text;
  }
  return null;
}

/**
 * Whether `node` is `styled.tag` or `styled(Component)`: where the id goes.
 * @param {ts.Node} node @param {string} styled
 */
function isStyledBase(node, styled) {
  if (ts.isPropertyAccessExpression(node)) return ts.isIdentifier(node.expression) && node.expression.text === styled;
  if (ts.isCallExpression(node)) return ts.isIdentifier(node.expression) && node.expression.text === styled;
  return false;
}

/**
 * @param {{ names?: boolean }} [options] `names`: ids that start with the component's name (`Card-d54428a7`, for the
 * development builds' class names); production ids are `sc-d54428a7` (the names cost about 0.5 KB gzip on /login).
 * @returns {import('typescript').TransformerFactory<import('typescript').SourceFile>}
 */
function styledComponentIds({ names = false } = {}) {
  return (context) => (file) => {
    const styled = styledName(file);
    if (!styled) return file;
    const relative = path.relative(ROOT, file.fileName).split(path.sep).join('/');
    const { factory } = context;
    let ordinal = 0;
    /** Rewrites a template's tag: the `styled.x` / `styled(X)` at its root gets `.withConfig({ componentId })`. */
    /** @type {(tag: ts.Expression, id: string) => ts.Expression | null} */
    const withId = (tag, id) => {
      if (isStyledBase(tag, styled)) {
        const config = factory.createObjectLiteralExpression([
          factory.createPropertyAssignment('componentId', factory.createStringLiteral(id)),
        ]);
        return factory.createCallExpression(factory.createPropertyAccessExpression(tag, 'withConfig'), undefined, [
          config,
        ]);
      }
      // `styled.x.attrs(…)`: the id goes on the base, the chain stays.
      if (ts.isCallExpression(tag) && ts.isPropertyAccessExpression(tag.expression)) {
        const inner = withId(tag.expression.expression, id);
        if (!inner) return null;
        return factory.updateCallExpression(
          tag,
          factory.updatePropertyAccessExpression(tag.expression, inner, tag.expression.name),
          tag.typeArguments,
          tag.arguments,
        );
      }
      return null;
    };
    /** The name a styled component is assigned to (`const Card = styled…`), for readable ids. */
    let declared = 'sc';
    /** @type {(node: ts.Node) => ts.Node} */
    const visit = (node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const outer = declared;
        declared = ts.isTaggedTemplateExpression(node.initializer) ? node.name.text : 'sc';
        const result = ts.visitEachChild(node, visit, context);
        declared = outer;
        return result;
      }
      if (ts.isTaggedTemplateExpression(node)) {
        const hash = createHash('sha256').update(`${relative}:${ordinal}`).digest('hex').slice(0, 8);
        const tag = withId(node.tag, `${names ? declared : 'sc'}-${hash}`);
        if (tag) {
          ordinal += 1;
          return factory.updateTaggedTemplateExpression(
            node,
            tag,
            node.typeArguments,
            ts.visitEachChild(node.template, visit, context),
          );
        }
      }
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitEachChild(file, visit, context);
  };
}

module.exports = { styledComponentIds };
