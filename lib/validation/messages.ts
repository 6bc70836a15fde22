// The one table of parameter-validation messages, in the upstream server's exact wording
// (zerver/lib/typed_endpoint.py ERROR_TEMPLATES). `{var}` is the parameter name plus a JSON path.
export const MESSAGES = {
  jsonInvalid: (v: string) => `${v} is not valid JSON`,
  notBool: (v: string) => `${v} is not a boolean`,
  notInt: (v: string) => `${v} is not an integer`,
  notFloat: (v: string) => `${v} is not a float`,
  notString: (v: string) => `${v} is not a string`,
  notList: (v: string) => `${v} is not a list`,
  notDict: (v: string) => `${v} is not a dict`,
  invalid: (v: string) => `Invalid ${v}`,
  tooLong: (v: string, max: number) => `${v} is too long (limit: ${max} characters)`,
  tooShort: (v: string) => `${v} is too short.`,
  blank: (v: string) => `${v} cannot be blank`,
  tooSmall: (v: string) => `${v} is too small`,
  tooLarge: (v: string) => `${v} is too large`,
  unexpected: (arg: string, v: string) => `Argument "${arg}" at ${v} is unexpected`,
  fieldMissing: (v: string) => `${v} field is missing: Field required`,
  invalidWith: (v: string, msg: string) => `Invalid ${v}: ${msg}`,
  badFormat: (v: string) => `${v} has invalid format`,
  confusing: (a: string, b: string) => `Can't decide between '${a}' and '${b}' arguments`,
} as const;
