import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { parseVerificationBody } from './verificationBody.js';

describe('parseVerificationBody', () => {
  it("reads Blockscout's multipart form, the input as a file part", () => {
    const b = '----formdata-undici-0123';
    const body = [
      `--${b}`,
      'Content-Disposition: form-data; name="compiler_version"',
      '',
      'v0.8.37+commit.f401782d',
      `--${b}`,
      'Content-Disposition: form-data; name="contract_name"',
      '',
      'A.sol:A',
      `--${b}`,
      'Content-Disposition: form-data; name="files[0]"; filename="input.json"',
      'Content-Type: application/json',
      '',
      '{"language":"Solidity","sources":{}}',
      `--${b}--`,
      '',
    ].join('\r\n');
    expect(parseVerificationBody(body)).toEqual({
      compilerVersion: 'v0.8.37+commit.f401782d',
      contractName: 'A.sol:A',
      input: '{"language":"Solidity","sources":{}}',
      constructorArgs: undefined,
    });
  });

  it('reads JSON with `input` or `files`, and names what is missing', () => {
    expect(parseVerificationBody({ compiler_version: '0.8.37', input: { a: 1 }, constructor_args: '0x01' })).toEqual({
      compilerVersion: '0.8.37',
      contractName: undefined,
      input: { a: 1 },
      constructorArgs: '0x01',
    });
    expect(parseVerificationBody({ compiler_version: '0.8.37', files: { 'x.json': '{}' } }).input).toBe('{}');
    const missing = (body: unknown) => {
      try {
        parseVerificationBody(body);
      } catch (e) {
        return e instanceof HttpError ? [e.status, e.message] : e;
      }
    };
    expect(missing({ compiler_version: '0.8.37' })).toEqual([422, 'files: the standard JSON input file is missing']);
    expect(missing({ input: {} })).toEqual([422, 'compiler_version is missing']);
  });
});
