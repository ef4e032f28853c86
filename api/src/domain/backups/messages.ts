/** Why a backup or a restore of the embedded database was refused: one Spanish line each, for the operator. */
export const backupMessages = {
  fileExists: (file: string) => `Ya existe ${file}: un respaldo nunca sobrescribe otro archivo. Elige otro nombre.`,
  folderMissing: (folder: string) => `No existe la carpeta ${folder}: créala o elige otra ruta para el respaldo.`,
  nothingToBackUp: (dir: string) =>
    `No hay base de datos embebida en ${dir}: nada que respaldar (¿DATA_DIR es el de la API?).`,
  fileMissing: (file: string) => `No existe el archivo ${file}.`,
  notABackup: (file: string, why: string) => `${file} no es un respaldo del portal válido (${why}). No se cambió nada.`,
  newerFormat: (file: string, version: number) =>
    `${file} es un respaldo de formato ${version}, de una versión más nueva del portal: restáuralo con esa versión. No se cambió nada.`,
  newerSchema: (file: string, migration: string) =>
    `${file} viene de una versión más nueva del portal (migración ${migration}, que esta no conoce): restáuralo con esa versión. No se cambió nada.`,
  unloadable: (file: string, why: string) =>
    `La base de datos de ${file} no se pudo cargar (${why}). No se cambió nada.`,
  notEmpty: (dataDir: string, what: string) =>
    `${dataDir} ya tiene ${what}. Para reemplazar lo que hay por el respaldo, repite la orden con --forzar (lo actual se guarda aparte, en ${dataDir}/antes-de-restaurar-…).`,
} as const;
