export * from './epak-engine';
