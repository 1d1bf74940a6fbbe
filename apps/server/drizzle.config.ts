import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema and applied by the server at start, on the embedded
// PostgreSQL and an external one alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/db/schema.ts',
  out: './drizzle',
});
