// Roles x routes x menus x actions, shared by the server (which enforces) and the web app (which shows
// or hides). DESIGN §2 "Permissions".
export * from './actions';
export * from './menus';
export * from './routes';
export * from './settings';
export * from './tags';
export * from './view-enforcement';
