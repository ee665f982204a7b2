#!/usr/bin/env node
// Your own prompt around the OpenAI SDK, as a route-eval `command` endpoint: route-eval sends each
// trial as one JSON line on stdin (schemas/endpoint-request.schema.json) and reads one JSON line
// back (schemas/endpoint-reply.schema.json). Logs go to stderr; stdout carries replies only.
//   OPENAI_API_KEY=… route-eval run -e command --command "node examples/endpoints/openai-agent.js" --endpoint-version prompt-v2
// Point OPENAI_BASE_URL at any OpenAI-compatible server (the tests use a local one).
import { createInterface } from "node:readline";
import OpenAI from "openai";

const client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, maxRetries: 0 });
const MODEL = process.env.AGENT_MODEL ?? "gpt-4.1-mini";
const PROMPT =
  "You are the support desk's router. Pick the one tool that serves the request; if an id is missing, ask for it.";

async function decide(request) {
  const messages = [
    { role: "system", content: `${PROMPT}\n\nContext: ${JSON.stringify(request.context)}` },
    { role: "user", content: request.goal },
  ];
  const reply = await client.chat.completions.create({
    model: MODEL,
    messages,
    tools: request.renderings.openai,
    temperature: request.temperature,
  });
  const calls = reply.choices[0]?.message?.tool_calls ?? [];
  return {
    tool: calls[0]?.function.name ?? null,
    arguments: calls[0]?.function.arguments ?? {},
    text: reply.choices[0]?.message?.content ?? null,
    calls: calls.map((c) => ({ tool: c.function.name, arguments: c.function.arguments })),
    usage: {
      input_tokens: reply.usage?.prompt_tokens ?? null,
      output_tokens: reply.usage?.completion_tokens ?? null,
    },
    model: reply.model,
  };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const request = JSON.parse(line);
  try {
    process.stdout.write(`${JSON.stringify({ id: request.id, ...(await decide(request)) })}\n`);
  } catch (error) {
    console.error(error);
    process.stdout.write(
      `${JSON.stringify({ id: request.id, error: String(error?.message ?? error) })}\n`,
    );
  }
}
