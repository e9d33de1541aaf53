import fc from "fast-check";
import { JOB_APPLICATION_FIELDS, targetError, validateJobApplication, type JobApplicationFields } from "@sd/contracts";
import { POLLUTION_MARKER, unicodeString } from "./bad-values";
import { Huge, textOf, type Text } from "./tokens";

/**
 * Bad multipart forms for the job application, built from its documented example: wrong and
 * missing fields, repeated and oddly named fields, file parts with huge names or non-PDF bytes,
 * and forms broken on the wire (no boundary, truncated, garbage).
 */

const BOUNDARY = "----sdFuzzBoundary7MA4YWxkTrZu0gW";
/** Multer's per-field limit (read-application.ts): a longer value is refused. */
const MAX_FIELD_BYTES = 4096;
/** Multer's part limits: more fields or parts are refused. */
const MAX_FIELDS = 20;
const RESUME_FIELD = "resume";

export interface FormPart {
  name: Text;
  value: Text;
  /** Present on a file part. */
  filename?: Text;
  contentType?: string;
}

export type FormDamage = "none" | "no-boundary" | "wrong-content-type" | "truncated" | "no-closing-boundary" | "garbage" | "other-boundary";

export interface MultipartRecipe {
  parts: FormPart[];
  damage: FormDamage;
  /** Where a truncated body is cut, as a share of it. */
  cut: number;
}

const textPart = (name: string, value: Text): FormPart => ({ name, value });

const badFieldValue: fc.Arbitrary<Text> = fc.oneof(
  unicodeString,
  fc.constantFrom<Text>("", "   ", '{"$ne":null}', "[object Object]", "not-an-email", "+0", "javascript:alert(1)"),
  fc.integer({ min: 4_000, max: 200_000 }).map((count) => new Huge("x", count)),
);

const wrongFieldName = fc.constantFrom(
  "nam",
  "Name",
  "name[$ne]",
  "email.$gt",
  "$where",
  "__proto__",
  `__proto__[${POLLUTION_MARKER}]`,
  `constructor[prototype][${POLLUTION_MARKER}]`,
  "position[]",
  "\u202Eemail",
);

/** File names without quotes or line breaks, which would change how the part header reads. */
const fileName: fc.Arbitrary<Text> = fc.oneof(
  fc.constantFrom<Text>("resume.pdf", "../../etc/passwd.pdf", "a.exe", "resume.pdf\u0000.exe", "résumé 😀.pdf", "\u202Efdp.exe", ".pdf", ""),
  fc.integer({ min: 256, max: 100_000 }).map((count) => new Huge("n", count, "", ".pdf")),
);

const fileContent = fc.constantFrom<Text>("%PDF-1.4\n%fuzz\n", "<html><script>alert(1)</script></html>", "", "MZ\u0090\u0000");

const filePart: fc.Arbitrary<FormPart> = fc.record({
  name: fc.constantFrom(RESUME_FIELD, "cv", "file", "resume[]", "name"),
  value: fileContent,
  filename: fileName,
  contentType: fc.constantFrom("application/pdf", "text/html", "application/octet-stream"),
});

type FormEdit = (parts: FormPart[]) => FormPart[];

function formEdits(fieldNames: readonly string[]): fc.Arbitrary<FormEdit> {
  const field = fc.constantFrom(...fieldNames);
  return fc.oneof(
    fc.tuple(field, badFieldValue).map(([name, value]): FormEdit => (parts) => parts.map((p) => (p.name === name && !p.filename ? { ...p, value } : p))),
    field.map((name): FormEdit => (parts) => parts.filter((p) => p.name !== name)),
    fc.tuple(field, fc.string({ maxLength: 8 })).map(([name, value]): FormEdit => (parts) => [...parts, textPart(name, value)]),
    fc.tuple(field, wrongFieldName).map(([name, renamed]): FormEdit => (parts) => parts.map((p) => (p.name === name ? { ...p, name: renamed } : p))),
    fc.tuple(wrongFieldName, badFieldValue).map(([name, value]): FormEdit => (parts) => [...parts, textPart(name, value)]),
    filePart.map((file): FormEdit => (parts) => [...parts, file]),
    fc.integer({ min: MAX_FIELDS, max: 40 }).map((count): FormEdit => (parts) => [...parts, ...Array.from({ length: count }, (_, i) => textPart(`extra${i}`, "x"))]),
  );
}

/** Forms built from `example` (the documented application, which the server accepts), edited 1 to 3 times or broken on the wire. */
export function badForms(example: Readonly<Record<string, string>>): fc.Arbitrary<MultipartRecipe> {
  const names = Object.keys(example);
  const base = names.map((name) => textPart(name, example[name]!));
  return fc.record({
    parts: fc.array(formEdits(names), { minLength: 1, maxLength: 3 }).map((edits) => edits.reduce((parts, edit) => edit(parts), base)),
    damage: fc.oneof(
      { weight: 6, arbitrary: fc.constant<FormDamage>("none") },
      { weight: 3, arbitrary: fc.constantFrom<FormDamage>("no-boundary", "wrong-content-type", "truncated", "no-closing-boundary", "garbage", "other-boundary") },
    ),
    cut: fc.double({ min: 0, max: 0.99, noNaN: true }),
  });
}

/** The Content-Type and bytes of the form as the suite sends it. */
export function encodeForm(recipe: MultipartRecipe): { contentType: string | null; body: Buffer } {
  const chunks = recipe.parts.map((part) => {
    const filename = part.filename === undefined ? "" : `; filename="${textOf(part.filename)}"`;
    const type = part.contentType ? `Content-Type: ${part.contentType}\r\n` : "";
    return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${textOf(part.name)}"${filename}\r\n${type}\r\n${textOf(part.value)}\r\n`;
  });
  const complete = Buffer.from(`${chunks.join("")}--${BOUNDARY}--\r\n`, "utf8");
  const withBoundary = `multipart/form-data; boundary=${BOUNDARY}`;
  switch (recipe.damage) {
    case "none":
      return { contentType: withBoundary, body: complete };
    case "no-boundary":
      return { contentType: "multipart/form-data", body: complete };
    case "wrong-content-type":
      return { contentType: "application/json", body: complete };
    case "truncated":
      return { contentType: withBoundary, body: complete.subarray(0, Math.floor(complete.length * recipe.cut)) };
    case "no-closing-boundary":
      return { contentType: withBoundary, body: Buffer.from(chunks.join(""), "utf8") };
    case "garbage":
      return { contentType: withBoundary, body: Buffer.from(complete.toString("base64").split("").reverse().join(""), "latin1") };
    case "other-boundary":
      return { contentType: "multipart/form-data; boundary=somethingElse", body: complete };
  }
}

const nameOf = (part: FormPart) => textOf(part.name);
const hasBrackets = (name: string) => /[[\]]/.test(name);

/**
 * Why the server must refuse the form (the contract's own rules, `validateJobApplication` and
 * `targetError`, plus multer's limits), or null when nothing here is certain to refuse it.
 */
export function formRefusal(recipe: MultipartRecipe): string | null {
  if (recipe.damage !== "none") return `a form broken on the wire (${recipe.damage})`;
  const files = recipe.parts.filter((p) => p.filename !== undefined);
  const fields = recipe.parts.filter((p) => p.filename === undefined);
  // An empty file name (what a browser sends for an empty file input), control characters or a
  // part header past busboy's limit: how the parser reads such a part is not this model's to say.
  if (files.some((f) => !isPlainFileName(textOf(f.filename!)))) return null;
  if (files.some((f) => nameOf(f) !== RESUME_FIELD)) return "a file in a field other than resume";
  if (files.length > 1) return "more than one file";
  if (fields.length > MAX_FIELDS) return "too many fields";
  if (fields.some((f) => Buffer.byteLength(textOf(f.value)) > MAX_FIELD_BYTES)) return "a field over multer's size limit";
  const values = new Map<string, string>();
  for (const target of [...JOB_APPLICATION_FIELDS, "position", "department"]) {
    const sent = fields.filter((f) => nameOf(f) === target);
    const nested = fields.some((f) => hasBrackets(nameOf(f)) && nameOf(f).startsWith(`${target}[`));
    if (sent.length === 0) return `no ${target}`;
    if (sent.length > 1) return `${target} sent twice`;
    // `name` and `name[...]` together: what multer makes of them is not this model's to say.
    if (nested) return null;
    values.set(target, textOf(sent[0]!.value));
  }
  const application = Object.fromEntries(JOB_APPLICATION_FIELDS.map((f) => [f, values.get(f)!])) as unknown as JobApplicationFields;
  const fieldProblem = Object.values(validateJobApplication(application))[0] ?? targetError(values.get("position")!, values.get("department")!);
  if (fieldProblem) return `the form's rules: ${fieldProblem}`;
  const resume = files[0];
  if (!resume) return null;
  if (!textOf(resume.value).startsWith("%PDF-")) return "a resume that is not a PDF";
  return validateJobApplication(application, { name: textOf(resume.filename!), size: Buffer.byteLength(textOf(resume.value)) }).resume ?? null;
}

// eslint-disable-next-line no-control-regex
const isPlainFileName = (name: string) => /^[^\u0000-\u001f\u007f"]+$/.test(name) && name.length <= 1_000;
