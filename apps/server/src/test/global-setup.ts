import { buildTemplate } from './test-database';

export default async function setup() {
  await buildTemplate();
}
