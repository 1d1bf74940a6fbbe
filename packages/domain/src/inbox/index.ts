export * from './folders';
