// The Spanish texts of the audit log's readers.
export const auditMessages = {
  invalidCursor:
    'El cursor no es uno de los que dio el portal para el registro de esta empresa: vuelve a leer sin «desde», desde la primera entrada',
} as const;
