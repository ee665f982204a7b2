// Rewrites the generated parts of schemas/ from the tables they come from, for editors and readers:
// schemas/config.schema.json from the config key table (src/config/keys.ts), and each rate of
// schemas/report.schema.json's metrics from the rate table (src/types/rates.ts).
// Run after `npm run build`: `npm run schemas`. A test fails while a file and its table disagree.
import { readFileSync, writeFileSync } from "node:fs";
import { buildConfigSchema } from "../dist/config/config-schema.js";
import { RATE_NAMES, RATES } from "../dist/types/rates.js";

const write = (url, value) => {
  writeFileSync(url, `${JSON.stringify(value, null, 2)}\n`);
  console.log(`wrote ${url.pathname}`);
};

write(new URL("../schemas/config.schema.json", import.meta.url), buildConfigSchema());

const reportFile = new URL("../schemas/report.schema.json", import.meta.url);
const report = JSON.parse(readFileSync(reportFile, "utf8"));
const properties = report.properties.metrics.properties;
for (const name of RATE_NAMES)
  properties[name] = { $ref: "#/$defs/rate", description: RATES[name].label };
write(reportFile, report);
