import { databaseLifecycle } from "../lifecycles/database";
import { openYamlDatabase } from "../lifecycles/database-programs";

// A Database declared in a Pulumi YAML program, served by the native plugin: the lifecycle the
// TypeScript SDK's tests prove for the dynamic provider, through the same handlers.

databaseLifecycle("nativecache", openYamlDatabase("native-database", "nativecache"));
