// Prepares an embedded database for a browser test that needs more people than signing up can make
// (e2e/support/crowded-api.ts): the migrations, the catalogue and the administrator (ADMIN_EMAIL, ADMIN_PASSWORD), as
// the API's own start does, then COUNT active people `<tag>-0001@e2e.portal.test` … one minute apart, the first the
// newest. Plain INSERTs: the counters' statement triggers see them as they see sign-ups.
//   DATA_DIR=<folder> ADMIN_EMAIL=… ADMIN_PASSWORD=… node --import tsx api/test/helpers/seed-many-users.ts <tag> <count>
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { roles } from '../../src/db/schema.js';
import { seed } from '../../src/db/seed.js';

const [tag, count] = [process.argv[2] ?? '', Number(process.argv[3])];
const dataDir = process.env.DATA_DIR;
if (!/^[a-z0-9-]+$/.test(tag) || !Number.isInteger(count) || count < 1 || count > 9999 || !dataDir) {
  console.error('Uso: DATA_DIR=<carpeta> node --import tsx seed-many-users.ts <etiqueta> <cantidad>');
  process.exit(1);
}

const database = await openDatabase({ databaseUrl: undefined, dataDir });
try {
  await migrate(database);
  await seed(database.db, { adminEmail: process.env.ADMIN_EMAIL, adminPassword: process.env.ADMIN_PASSWORD });
  await database.transaction((sql) =>
    sql.query(
      `INSERT INTO users (email, name, last_name, role, status, created_at)
       SELECT $1 || '-' || lpad(n::text, 4, '0') || '@e2e.portal.test', 'Persona', n::text, $2, 'active',
              now() - n * interval '1 minute'
       FROM generate_series(1, $3::int) AS n`,
      [tag, roles.user, count],
    ),
  );
} finally {
  await database.close();
}
