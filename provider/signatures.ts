/**
 * How the engine marks special values in a property map (@pulumi/pulumi runtime/rpc): an object
 * whose SIG_KEY holds one of these signatures is a secret, an asset or an archive.
 */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
export const ARCHIVE_SIG = "0def7320c3a5731c473e5ecbe6d01bc7";
