/**
 * Reads an operation over both transports a client uses: REST (`/v1/operations/NAME`, asserting 200)
 * and the MCP tool (asserting no isError), so a test compares the two answers to the figures it
 * expects. The server, token and MCP client are read when a call is made (set up in before()).
 */
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Connected } from './mcp.js';
import { sendJson } from './rest-calls.js';

export type Args = Record<string, string | number | boolean>;

export function bothTransports(at: () => { baseUrl: string; token: string; mcp: Connected }) {
  async function rest(name: string, args: Args = {}): Promise<any> {
    const { baseUrl, token } = at();
    const query = new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [k, String(v)]));
    const r = await sendJson(baseUrl, 'GET', `/v1/operations/${name}${Object.keys(args).length ? `?${query}` : ''}`, token);
    assert.equal(r.status, 200, `${name} ${JSON.stringify(args)}: ${r.bytes.slice(0, 600)}`);
    return r.body;
  }
  async function tool(name: string, args: Record<string, unknown> = {}): Promise<any> {
    const result = (await at().mcp.client.callTool({ name, arguments: args })) as CallToolResult;
    assert.equal(result.isError === true, false, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content).slice(0, 600)}`);
    return result.structuredContent;
  }
  const both = async (name: string, args: Args = {}) => [await rest(name, args), await tool(name.replace('.', '_'), args)];
  return { rest, tool, both };
}
