export * from './urn';
export * from './builders';
export * from './fieldPath';
export * from './aspects';
export * from './readShapes';
export * from './protocol';
export * from './entityPage';
