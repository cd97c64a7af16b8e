import type { Route } from "../http/router";
import type { ApiHandler } from "../http/server";
import { accountRoutes } from "./account-routes";
import { appRoutes } from "./app-routes";
import { databaseRoutes } from "./database-routes";
import { workspaceRoutes } from "./workspace-routes";

export { adminRoutes } from "./admin-routes";
export { snapshotDownloadRoutes } from "./app-routes";
export { blobRoutes, publicContentRoutes } from "./blob-routes";

export const platformRoutes: Route<ApiHandler>[] = [
  ...accountRoutes,
  ...appRoutes,
  ...databaseRoutes,
  ...workspaceRoutes,
];
