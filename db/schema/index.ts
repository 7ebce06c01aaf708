export * from './accounts.ts';
export * from './credits.ts';
export * from './videos.ts';
export * from './blobs.ts';
export * from './articles.ts';
export * from './sessions.ts';
export * from './job-slots.ts';
