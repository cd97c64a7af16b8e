import { ApiError } from "../../../provider/client";
import { confirmGone, refuseOtherAccount, type Visibility } from "../../../provider/lifecycle/gone";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// "Gone, or not visible to this key?", the rule every kind shares, on its own: the emulator only
// answers who the configured key is (GET /v2/users/me); the failures are made here.

const env = providerAgainstEmulator();
const owner = () => env.emulator.accounts[0].accountId;
const other = () => env.emulator.accounts[1].accountId;
const askedWhoTheKeyIs = () => env.count("GET /v2/users/me");

const DATABASES: Visibility = { notFound: "DATABASE_NOT_FOUND" };
const WORKSPACES: Visibility = { notFound: "WORKSPACE_NOT_FOUND", deniedToOthers: true };

function answer(code: string, status: number): ApiError {
  const fields = {
    code,
    status,
    method: "GET" as const,
    path: "/v2/things/{id}",
    operation: "read thing",
    outcomeUnknown: false,
    mayHaveCommitted: false,
  };
  return new ApiError(fields, `read thing: ${code}`);
}

describe("confirmGone", () => {
  test("a not-found for the owner's key means gone", async () => {
    await expect(
      confirmGone(answer("DATABASE_NOT_FOUND", 404), DATABASES, 'refresh database "cache" (db_1)', owner()),
    ).resolves.toBeUndefined();
  });

  test("a not-found for another account's key is an error that names both accounts, not a deletion", async () => {
    env.useAccount(1);
    await expect(
      confirmGone(answer("DATABASE_NOT_FOUND", 404), DATABASES, 'refresh database "cache" (db_1)', owner()),
    ).rejects.toThrow(
      `refresh database "cache" (db_1): only its owner, account ${owner()}, can do this, and the configured API key is for ` +
        `account ${other()} (DATABASE_NOT_FOUND: another account's key gets it whether or not the object still exists). ` +
        `Use the owner's key (squarecloud:apiKey or SQUARECLOUD_API_KEY). Nothing was changed.`,
    );
  });

  test("with no owner in state (older versions) a not-found is taken as it is, without asking who the key is", async () => {
    env.useAccount(1);
    await expect(
      confirmGone(answer("DATABASE_NOT_FOUND", 404), DATABASES, 'delete database "old" (db_0)', undefined),
    ).resolves.toBeUndefined();
    expect(await askedWhoTheKeyIs()).toBe(0);
  });

  test("a refusal is never a deletion: the owner's is passed on as it is, another account's names both", async () => {
    const refusal = answer("PERMISSION_DENIED", 403);
    await expect(confirmGone(refusal, WORKSPACES, 'delete workspace "team" (ws_1)', owner())).rejects.toBe(refusal);
    env.useAccount(1);
    await expect(confirmGone(refusal, WORKSPACES, 'delete workspace "team" (ws_1)', owner())).rejects.toThrow(
      `delete workspace "team" (ws_1): only its owner, account ${owner()}, can do this, and the configured API key is for ` +
        `account ${other()} (PERMISSION_DENIED). Use the owner's key`,
    );
  });

  test("any other failure is passed on as it is, without asking who the key is", async () => {
    env.useAccount(1);
    const failures = [
      [answer("INTERNAL_SERVER_ERROR", 500), DATABASES],
      // Not this kind's not-found, nor a refusal where the kind says other accounts get none.
      [answer("MEMBER_NOT_FOUND", 404), WORKSPACES],
      [answer("PERMISSION_DENIED", 403), DATABASES],
      [new Error("socket hang up"), WORKSPACES],
    ] as const;
    for (const [failure, kind] of failures) {
      await expect(confirmGone(failure, kind, 'refresh thing "x" (x_1)', owner())).rejects.toBe(failure);
    }
    expect(await askedWhoTheKeyIs()).toBe(0);
  });
});

describe("refuseOtherAccount", () => {
  test("refuses only when the key's account is known and is not the owner's", () => {
    expect(() => refuseOtherAccount('adopt object "logo" (1/logo)', "1", "1")).not.toThrow();
    // A key of another shape than <account>-<secret> tells no account.
    expect(() => refuseOtherAccount('adopt object "logo" (1/logo)', "1", undefined)).not.toThrow();
    expect(() => refuseOtherAccount('adopt object "logo" (1/logo)', "1", "2")).toThrow(
      `adopt object "logo" (1/logo): only its owner, account 1, can do this, and the configured API key is for account 2. ` +
        `Use the owner's key (squarecloud:apiKey or SQUARECLOUD_API_KEY). Nothing was changed.`,
    );
  });
});
