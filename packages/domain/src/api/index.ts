export * from './contract';
export * from './headers';
export * from './identity';
export * from './public';
export * from './endpoints';
