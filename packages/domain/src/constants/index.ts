// Single entry point for the spec's enums and constants.
export * from './countries';
export * from './fonts';
export * from './notifications';
export * from './odp-codes';
export * from './roles';
export * from './signing-policies';
export * from './stamp-papers';
export * from './statuses';
export * from './tags';
export * from './time';
export * from './ui';
export * from './validation';
export * from './workflow';
