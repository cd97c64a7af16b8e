import * as path from "node:path";
import { codeCacheFile, PLUGIN_BUNDLE, runWithCodeCache } from "./code-cache";

/**
 * The plugin's `main.js`, which its launcher runs: the bundle beside it (provider/plugin/main.ts
 * and all it imports), from the code cache of that bundle. The build writes in the bundle's hash.
 */
declare const SQUARECLOUD_PLUGIN_BUNDLE_SHA256: string;

runWithCodeCache(path.join(__dirname, PLUGIN_BUNDLE), codeCacheFile(SQUARECLOUD_PLUGIN_BUNDLE_SHA256));
