// ajv (default strict mode, JSON Schema 2020-12, ajv-formats) on the published JSON Schemas
// and on the files they describe, fetched from a running server.
// Usage: node ajv-check.mjs BASE [YEAR...], run in the directory where ajv and ajv-formats
// are installed (see bench/validators/README.md).
import { createRequire } from "node:module";

const require = createRequire(process.cwd() + "/");
const Ajv2020 = require("ajv/dist/2020").default;
const addFormats = require("ajv-formats").default;

const base = process.argv[2] ?? "http://127.0.0.1:8080";
const get = async (path) => {
  const resp = await fetch(base + path);
  if (!resp.ok) throw new Error(`${path}: ${resp.status}`);
  return resp.json();
};

// Strict mode is ajv's default; said here so that a change of default does not weaken the check.
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validators = {};
for (const name of ["manifest", "year", "school_holidays", "changes"]) {
  const schema = await get(`/data/schema/${name}.schema.json`);
  validators[name] = ajv.compile(schema); // throws on any strict-mode violation
  console.log(`ajv ${name}.schema.json: compiles in strict mode`);
}

let failures = 0;
const check = (name, what, value) => {
  const ok = validators[name](value);
  console.log(`ajv ${what}: ${ok ? "valid" : "INVALID"}`);
  if (!ok) {
    failures += 1;
    console.log(JSON.stringify(validators[name].errors.slice(0, 5), null, 1));
  }
};
const manifest = await get("/data/manifest.json");
check("manifest", "/data/manifest.json", manifest);
check("school_holidays", "/data/school_holidays.json", await get("/data/school_holidays.json"));
check("changes", "/data/changes.json", await get("/data/changes.json"));
const years = process.argv.slice(3).map(Number);
const wanted = years.length ? years : [manifest.first_year, 2026, manifest.last_year];
for (const year of wanted) {
  check("year", `/data/years/${year}.json`, await get(`/data/years/${year}.json`));
}
// Closed and patterned: an extra field and a short checksum are refused.
const altered = structuredClone(manifest);
altered.unexpected = 1;
altered.files[0].sha256 = "abc";
if (validators.manifest(altered)) {
  console.log("ajv: an altered manifest was ACCEPTED");
  failures += 1;
} else {
  console.log(`ajv: an altered manifest is refused (${validators.manifest.errors.length} errors)`);
}
process.exit(failures ? 1 : 0);
