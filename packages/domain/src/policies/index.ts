// Per-resource rules (this ePak, this template), beside the role table of ../permissions. Both the
// server (which enforces) and the web app (which shows or hides) ask `can`. DESIGN §2 "Permissions".
export * from './decide';
export * from './resources';
export * from './rules';
