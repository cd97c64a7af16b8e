import { z } from "zod";

/** The API's one rule for workspace names, object names and object prefixes. */
const SHORTEST = 3;
const LONGEST = 32;
export const NAME_PATTERN = new RegExp(`^[a-zA-Z0-9_]{${SHORTEST},${LONGEST}}$`);
/** The rule in words, for messages and field texts. */
export const NAME_RULE = `${SHORTEST} to ${LONGEST} characters of a-z, A-Z, 0-9 and _`;

/** A name under that rule, as a check reads it. */
export const shortName = z.string({ error: "must be a string" }).regex(NAME_PATTERN, { error: `must be ${NAME_RULE}` });
