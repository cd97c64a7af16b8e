import type { ConfigMap, ConfigValue, Stack } from "@pulumi/pulumi/automation";
import { stackSecrets } from "./stack-secrets";

/**
 * The Automation API sets and removes config with one `pulumi config` command per call, each of
 * which loads the project and the stack and derives the passphrase's key again (0.2 to 0.3 s of
 * CPU). This makes `stack` edit its config file, Pulumi.<stack>.yaml, itself, as those commands
 * do: a key without a namespace takes the project's, a secret is stored as `secure:` under the
 * stack's key (stack-secrets.ts). The engine reads the file at each run; typescript/smoke reads a
 * secret back through the CLI. Keys given as paths (`path: true`) still go through the CLI.
 */
export function localConfig(stack: Stack, project: string, passphrase: string): Stack {
  const workspace = stack.workspace;
  const original = {
    setAllConfig: stack.setAllConfig.bind(stack),
    setConfig: stack.setConfig.bind(stack),
    removeConfig: stack.removeConfig.bind(stack),
    removeAllConfig: stack.removeAllConfig.bind(stack),
  };
  const fullKey = (key: string) => (key.includes(":") ? key : `${project}:${key}`);
  // One edit at a time: each reads the file the one before wrote.
  let edits: Promise<void> = Promise.resolve();
  const edit = (change: (config: Record<string, unknown>, seal: (value: ConfigValue) => unknown) => void) => {
    const next = edits.then(async () => {
      const settings = await workspace.stackSettings(stack.name);
      const secrets = await stackSecrets({ type: "passphrase", state: { salt: settings.encryptionSalt } }, passphrase);
      if (!secrets) throw new Error(`stack ${stack.name} has no passphrase salt in its config file`);
      const config = { ...settings.config };
      change(config, ({ value, secret }) => (secret ? { secure: secrets.encrypt(value) } : value));
      await workspace.saveStackSettings(stack.name, { ...settings, config });
    });
    edits = next.catch(() => undefined);
    return next;
  };
  const setAll = (values: ConfigMap) =>
    edit((config, seal) => {
      for (const [key, value] of Object.entries(values)) config[fullKey(key)] = seal(value);
    });
  const removeAll = (keys: string[]) =>
    edit((config) => {
      for (const key of keys) delete config[fullKey(key)];
    });
  return Object.assign(stack, {
    setAllConfig: (values: ConfigMap, path?: boolean) => (path ? original.setAllConfig(values, path) : setAll(values)),
    setConfig: (key: string, value: ConfigValue, path?: boolean) =>
      path ? original.setConfig(key, value, path) : setAll({ [key]: value }),
    removeConfig: (key: string, path?: boolean) => (path ? original.removeConfig(key, path) : removeAll([key])),
    removeAllConfig: (keys: string[], path?: boolean) =>
      path ? original.removeAllConfig(keys, path) : removeAll(keys),
  });
}
