export * from './contract';
export * from './documents';
export * from './epaks';
export * from './headers';
export * from './identity';
export * from './public';
export * from './workflows';
export * from './endpoints';
