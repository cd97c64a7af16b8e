import { apiError } from "../errors";
import { success } from "../http/reply";
import type { Route } from "../http/router";
import type { ApiHandler } from "../http/server";

export const accountRoutes: Route<ApiHandler>[] = [
  {
    method: "GET",
    template: "/v2/users/me",
    handler: ({ account }, models) =>
      success({
        user: models.accounts.userView(account),
        applications: models.apps.ownedBy(account).map((a) => models.apps.listingView(a)),
        databases: models.databases.listFor(account).map((d) => models.databases.listingView(d)),
      }),
  },
  {
    method: "GET",
    template: "/v2/users/snapshots",
    handler: ({ account, query }, models) => {
      const scope = query.get("scope") ?? "applications";
      if (scope !== "applications" && scope !== "databases") throw apiError("INVALID_SCOPE");
      return success(models.snapshots.forAccount(account, scope));
    },
  },
];
