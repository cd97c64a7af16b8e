import { createCipheriv, createDecipheriv, pbkdf2, randomBytes } from "node:crypto";
import { promisify } from "node:util";

/** A checkpoint's `secrets_providers`: for the passphrase manager, its salt (the config file's `encryptionsalt`). */
export interface SecretsProviderState {
  type: string;
  state?: { salt?: string };
}

export interface StackSecrets {
  /** The plaintext of a secret's `ciphertext` in the checkpoint. */
  decrypt(ciphertext: string): string;
  /** A ciphertext of `plaintext` that the engine decrypts: a secure value of the stack's config file. */
  encrypt(plaintext: string): string;
}

const derive = promisify(pbkdf2);
const keys = new Map<string, Promise<Buffer>>();

/**
 * The secrets of a stack under Pulumi's passphrase secrets manager, read as the engine reads them
 * (sdk/go/common/resource/config/crypt.go): AES-256-GCM under a key derived from the passphrase
 * and the stack's salt by PBKDF2 (SHA-256, 1,000,000 rounds). Each key is derived once per test
 * process, where every engine command derives it again. Undefined under another secrets manager.
 */
export async function stackSecrets(
  provider: SecretsProviderState | undefined,
  passphrase: string | undefined,
): Promise<StackSecrets | undefined> {
  const salt = provider?.type === "passphrase" ? provider.state?.salt : undefined;
  if (salt === undefined || passphrase === undefined) return undefined;
  const id = `${passphrase}\0${salt}`;
  let key = keys.get(id);
  if (!key) {
    // "v1:<salt>:<the word pulumi encrypted, which the engine checks the passphrase with>"
    key = derive(passphrase, Buffer.from(salt.split(":")[1] ?? "", "base64"), 1_000_000, 32, "sha256");
    keys.set(id, key);
  }
  const derived = await key;
  return { decrypt: (ciphertext) => decrypt(derived, ciphertext), encrypt: (plaintext) => encrypt(derived, plaintext) };
}

/** "v1:<nonce>:<sealed>", both base64, the sealed bytes ending with GCM's 16-byte tag. */
function encrypt(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

function decrypt(key: Buffer, ciphertext: string): string {
  const [version, nonce, sealed] = ciphertext.split(":");
  if (version !== "v1" || !nonce || !sealed) throw new Error("not a v1 ciphertext of the passphrase secrets manager");
  const bytes = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
}
