/**
 * Looks for the plaintext of secrets in texts (state files, command output, error messages, the
 * emulator's request log). A secret may show up raw or escaped inside JSON, and a certificate
 * line by line, so each secret is searched in all of those forms.
 */
export interface SecretHit {
  secret: string;
  source: string;
}

export class SecretScanner {
  private readonly needles: { label: string; needle: string }[] = [];

  /** `label` names the secret in a failure without repeating it. */
  add(label: string, value: string | undefined): this {
    if (value === undefined || value === "") return this;
    const forms = new Set([value, JSON.stringify(value).slice(1, -1)]);
    // A PEM body's base64 lines are each unique enough to betray the whole certificate.
    for (const line of value.split(/\r?\n/)) if (/^[A-Za-z0-9+/=]{40,}$/.test(line.trim())) forms.add(line.trim());
    for (const needle of forms) this.needles.push({ label, needle });
    return this;
  }

  get size(): number {
    return this.needles.length;
  }

  scan(texts: Record<string, string>): SecretHit[] {
    const hits: SecretHit[] = [];
    for (const [source, text] of Object.entries(texts)) {
      for (const { label, needle } of this.needles) {
        if (text.includes(needle) && !hits.some((hit) => hit.secret === label && hit.source === source))
          hits.push({ secret: label, source });
      }
    }
    return hits;
  }
}

/**
 * Pulumi's own traces of what passes between engine, program and providers: at `-v=9` the engine
 * logs every property it marshals (secrets unwrapped, whatever the provider), and with `--debug`
 * the Node SDK prints each registration's answer. They print what the engine hands around, not
 * what the provider says, so they are counted apart (see docs/reliability.md, Secrets) rather than scanned.
 */
const ENGINE_TRACE =
  /^\{"time":"[^"]*","level":"[A-Z]+","msg":"(?:Marshaling property for RPC|Unmarshaling property for RPC|Planner decided|eventSink::Debug\(|RegisterResource RPC finished)/;
const SDK_REGISTRATION_DEBUG = /debug: RegisterResource(?:Outputs)? RPC finished/;
/** A line that starts a new message in the CLI's display: anything but an indented continuation. */
const NEW_MESSAGE = /^(?:\S| {1,3}\S| +(?:debug|info|warning|error): )/;

/** Splits a command's output into Pulumi's own traces and everything else. */
export function splitEngineTraces(text: string): { traces: string; rest: string } {
  const traces: string[] = [];
  const rest: string[] = [];
  let inRegistrationDebug = false;
  for (const line of text.split("\n")) {
    if (NEW_MESSAGE.test(line)) inRegistrationDebug = SDK_REGISTRATION_DEBUG.test(line);
    (ENGINE_TRACE.test(line) || inRegistrationDebug ? traces : rest).push(line);
  }
  return { traces: traces.join("\n"), rest: rest.join("\n") };
}
