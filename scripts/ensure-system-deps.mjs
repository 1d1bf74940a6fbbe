#!/usr/bin/env node
// Installs what the test suite needs from Debian's packages when it is missing, so `npm test`
// works on a fresh machine: Chromium for the browser tests, poppler-utils (pdfsig, pdftoppm)
// and qpdf as independent judges of the PDFs we write, openssl and libnss3-tools (certutil) to
// judge the signing certificates and CMS and to build the NSS database in which pdfsig checks that
// a seal chains to its tenant's CA, and a Devanagari font so Hindi pages render as people see
// them. Set PAKT_SKIP_SYSTEM_DEPS=1 to skip (e.g. a machine managed elsewhere).
import { execFileSync, spawnSync } from 'node:child_process';

const NEEDED = [
  { pkg: 'chromium', present: () => has('chromium') },
  { pkg: 'poppler-utils', present: () => has('pdfsig') && has('pdftoppm') },
  { pkg: 'qpdf', present: () => has('qpdf') },
  { pkg: 'openssl', present: () => has('openssl') },
  { pkg: 'libnss3-tools', present: () => has('certutil') },
  { pkg: 'fonts-noto-core', present: () => dpkgInstalled('fonts-noto-core') },
];

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

if (process.env.PAKT_SKIP_SYSTEM_DEPS === '1') process.exit(0);

const missing = NEEDED.filter((n) => !n.present()).map((n) => n.pkg);
if (missing.length === 0) process.exit(0);

if (!has('apt-get')) {
  console.error(`Missing system packages: ${missing.join(', ')}. Install them with your package manager.`);
  process.exit(1);
}
const asRoot = process.getuid?.() === 0;
if (!asRoot && !has('sudo')) {
  console.error(`Missing system packages: ${missing.join(', ')}. Run: apt-get install -y ${missing.join(' ')} (as root).`);
  process.exit(1);
}
const run = (args) => {
  const [cmd, ...rest] = asRoot ? args : ['sudo', '-n', ...args];
  console.log(`$ ${[cmd, ...rest].join(' ')}`);
  execFileSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};
console.log(`Installing system packages the tests need: ${missing.join(', ')}`);
run(['apt-get', 'update', '-qq']);
run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
