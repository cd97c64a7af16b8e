import { databaseLifecycle } from "../../e2e/lifecycles/database";
import { openDatabaseProgram } from "../../e2e/lifecycles/database-programs";
import { type LiveSuite, liveSuite } from "../live-suite";
import { runnerSettings } from "../../../scripts/live/settings";

// The Database lifecycle of the TypeScript SDK (its dynamic provider) against the service, and on
// the same stack the check of the key at preview.

/** A key of the service's shape that no account has. */
const WRONG_KEY = "3155597145698959364-wrongwrongwrongwrongwrong";

databaseLifecycle<LiveSuite>(
  `${runnerSettings().runPrefix}ts`,
  openDatabaseProgram(`${runnerSettings().runPrefix}ts`),
  {
    afterCreate({ suite, program }) {
      test("a refused key fails the preview naming its setting, after one read and no change", async () => {
        await program().stack.setAllConfig(suite.configWithKey(WRONG_KEY));
        await suite.log.clearRequests();
        try {
          const output = await program()
            .stack.preview()
            .then(
              () => "",
              (error: Error) => error.message,
            );
          expect(output).toContain("read account failed: ACCESS_DENIED (HTTP 401, GET /v2/users/me)");
          expect(output).toContain("The API key was refused; it came from squarecloud:apiKey.");
          expect(output).not.toContain(WRONG_KEY);
          const routes = (await suite.log.requests()).map((request) => request.route);
          expect(routes).toEqual(["GET /v2/users/me"]);
        } finally {
          await program().stack.setAllConfig(suite.config());
        }
      });

      test("with the owner's key again, the preview passes and plans no change", async () => {
        expect((await program().stack.preview()).changeSummary).toEqual({ same: 2 });
      });
    },
  },
  liveSuite,
);
