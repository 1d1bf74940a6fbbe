export * from './api';
export * from './constants';
export * from './domain-error';
export * from './envelope';
export * from './languages';
export * from './message-keys';
export * from './response-codes';
