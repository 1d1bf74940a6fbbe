export * from './contract';
export * from './public';
