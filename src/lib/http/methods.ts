/** The operations a path item of OpenAPI 3.1 can hold, by their keys in the document (lower case). */
export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
