// The tag editing model, its geometry and the placement rules (spec §3 and §5), shared by the
// web editor and the server's re-check on save.
export * from './filling';
export * from './geometry';
export * from './qr';
export * from './palette';
export * from './rules';
export * from './smart-fields';
export * from './tag';
