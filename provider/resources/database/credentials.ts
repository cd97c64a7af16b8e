import { ApiError } from "../../client";
import { warn } from "../../channels";
import { apiClient } from "../../runtime";
import type { DatabaseOutputs } from "../../kinds/database";

/** Callers make this their last request, so the new password goes straight into the outputs. */
export async function resetPassword(
  id: string,
  name: string,
  connectionUrl: string | undefined,
): Promise<Pick<DatabaseOutputs, "password" | "connectionUrl">> {
  let password: string;
  try {
    ({ password } = await apiClient().resetDatabaseCredentials(id, "password"));
  } catch (err) {
    if (err instanceof ApiError && err.mayHaveCommitted) {
      throw new Error(
        `reset the password of database "${name}" (${id}): there was no usable response (${err.code}), so the ` +
          `password may have been reset without the new one being received, and reading cannot tell: the API never ` +
          `shows a password again. Whatever uses the old password may stop working. Run pulumi up again: it resets ` +
          `the password once more and stores the new one.`,
      );
    }
    throw err;
  }
  return { password, connectionUrl: withPassword(connectionUrl, password, name) };
}

function withPassword(connectionUrl: string | undefined, password: string, name: string): string | undefined {
  if (connectionUrl === undefined) return undefined;
  try {
    const url = new URL(connectionUrl);
    url.password = encodeURIComponent(password);
    return url.toString();
  } catch {
    warn(`database "${name}": the connection URL could not be updated with the new password; it is left out`);
    return undefined;
  }
}

/** The certificate, or undefined with a warning (the endpoint fails while a database is stopped). */
export async function readCertificate(id: string, name: string): Promise<string | undefined> {
  try {
    return await apiClient().getDatabaseCertificate(id);
  } catch (err) {
    warn(
      `database "${name}" (${id}): the certificate could not be read (${(err as Error).message}); pulumi refresh tries again`,
    );
    return undefined;
  }
}
