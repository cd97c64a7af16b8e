import { ApiError } from "../../../provider/client/errors";

/** The ApiError a call rejects with; the test fails when the call succeeds or rejects with anything else. */
export async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
