// Rewrites schemas/config.schema.json from the config key table (src/config/keys.ts), for editors.
// Run after `npm run build`: `npm run schemas`. A test fails while the two disagree.
import { writeFileSync } from "node:fs";
import { buildConfigSchema } from "../dist/config/config-schema.js";

const file = new URL("../schemas/config.schema.json", import.meta.url);
writeFileSync(file, `${JSON.stringify(buildConfigSchema(), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);
