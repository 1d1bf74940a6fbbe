import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { childEnvironment } from './child-environment';

export const OFFICE_TIMEOUT_MS = 120_000;

/** LibreOffice as configured, or `soffice` / `libreoffice` found on the PATH; undefined when absent. */
export function findLibreOffice(configured: string | undefined, searchPath = process.env['PATH'] ?? ''): string | undefined {
  if (configured) return configured;
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    for (const name of ['soffice', 'libreoffice']) {
      const candidate = path.join(dir, name);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      } catch {
        // Not here; the next directory may have it.
      }
    }
  }
  return undefined;
}

/**
 * Converts an office file to PDF with LibreOffice, headless, with a profile of its own in the
 * work directory (two conversions at once would otherwise fight over the user's profile lock),
 * bounded in time. Resolves to the PDF's path, or undefined when LibreOffice made none.
 */
export async function convertWithLibreOffice(options: { binary: string; input: string; workDir: string; timeoutMs?: number }): Promise<string | undefined> {
  const outDir = path.join(options.workDir, 'office-out');
  const profile = path.join(options.workDir, 'office-profile');
  await fs.promises.mkdir(outDir, { recursive: true });
  const child = spawn(
    options.binary,
    [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', '--nolockcheck', '--convert-to', 'pdf', '--outdir', outDir, options.input],
    // None of the server's secrets: LibreOffice parses a stranger's file with all its filters.
    { stdio: 'ignore', env: childEnvironment() },
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? OFFICE_TIMEOUT_MS);
  try {
    await new Promise<void>((resolve) => {
      child.on('error', () => resolve());
      child.on('close', () => resolve());
    });
  } finally {
    clearTimeout(timer);
  }
  const produced = path.join(outDir, `${path.parse(options.input).name}.pdf`);
  return fs.existsSync(produced) ? produced : undefined;
}
