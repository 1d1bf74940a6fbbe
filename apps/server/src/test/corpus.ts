import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../paths';

/**
 * The 45 real-world PDFs written by others (`../shared/corpus/pdfs`, beside the repository): what
 * every PDF path is tested against. One home for its place, so a test file can move freely.
 */
export const CORPUS = path.join(REPO_ROOT, '..', 'shared', 'corpus', 'pdfs') + path.sep;

/** The bytes of one corpus file, by name. */
export function corpusPdf(name: string): Buffer {
  return fs.readFileSync(path.join(CORPUS, name));
}
