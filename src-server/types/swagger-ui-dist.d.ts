declare module 'swagger-ui-dist' {
  /** Folder holding Swagger UI's static files. */
  export function getAbsoluteFSPath(): string;
}
