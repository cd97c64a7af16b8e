import type { z } from "zod";
import type { HttpClient } from "../http";

/**
 * The request most reads are: a GET of one path whose answer `schema` reads. The path names the
 * object by its one `{placeholder}`, which the returned function fills with the id it is given;
 * an error names the id as the resource.
 */
export function readById<S extends z.ZodType>(api: HttpClient, operation: string, path: string, schema: S) {
  const placeholder = /\{(\w+)\}/.exec(path)?.[1];
  if (placeholder === undefined) throw new Error(`${operation}: the path ${path} names no id`);
  return (id: string) =>
    api.request({ operation, resource: id, method: "GET", path, params: { [placeholder]: id }, schema });
}

/** A GET of one path that names nothing, such as the account's own figures. */
export function read<S extends z.ZodType>(api: HttpClient, operation: string, path: string, schema: S) {
  return () => api.request({ operation, method: "GET", path, schema });
}
