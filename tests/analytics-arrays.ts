// Shared by the emulator's tests and the end-to-end ones, which may not import each other.

/** The ten arrays of an application's analytics, as the spec names them. */
export const ANALYTICS_ARRAYS = [
  "visits",
  "countries",
  "devices",
  "os",
  "browsers",
  "protocols",
  "methods",
  "paths",
  "referers",
  "providers",
];
