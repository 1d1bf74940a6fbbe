export * from './contract';
export * from './headers';
export * from './public';
