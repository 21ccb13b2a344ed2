export * from './errors';
export * from './auth';
export * from './user';
export * from './builds';
export * from './config';
