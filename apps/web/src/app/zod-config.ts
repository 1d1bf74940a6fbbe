import { z } from 'zod';

/**
 * Imported first by main.tsx. Zod compiles fast object parsers with `new Function` unless told
 * not to; the app's CSP (script-src without 'unsafe-eval') forbids that, and merely probing for it
 * reports a CSP violation. Jitless parsing is the same parsing, interpreted.
 */
z.config({ jitless: true });
