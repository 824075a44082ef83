/**
 * The Python library as the site publishes it: a wheel (a zip with its `.dist-info` metadata,
 * which pip installs as it is) and a source distribution (a gzipped tar with `PKG-INFO` and
 * `pyproject.toml`), both written here so that packing needs neither network nor Python tools.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { loadGatedContract } from '../../sandbox/contract-gate.ts';
import type { ClientPackage } from '../client-package.ts';
import { contractLicense, licenseNotice } from '../shared/license.ts';
import { writeZip } from '../../lib/packaging/zip.ts';
import { clientPackageDate } from '../shared/package-date.ts';
import { pythonDistributionName, pythonFloor, pythonImportName, writePythonPackage } from './generate.ts';

/** The name pip and PyPI give a distribution's files: the import name's spelling (`subscription_lifecycle_client`). */
const fileStem = (version: string) => `${pythonImportName}-${version}`;

/** The wheel's file name for a contract version: pure Python, any Python 3. */
export function pythonWheelName(version: string): string {
  return `${fileStem(version)}-py3-none-any.whl`;
}

/** The source distribution's file name for a contract version. */
export function pythonSdistName(version: string): string {
  return `${fileStem(version)}.tar.gz`;
}

const summary = (contract: ExecutableContract) => `A typed client of the ${contract.document.info.title}: one method per action, the retry policy and courtesy pace built in.`;

/** The core metadata (PKG-INFO in an sdist, METADATA in a wheel), version 2.1, which every pip since 2018 reads. */
function coreMetadata(contract: ExecutableContract): string {
  const version = contract.model.documentVersion;
  return `Metadata-Version: 2.1
Name: ${pythonDistributionName}
Version: ${version}
Summary: ${summary(contract)}
License: ${contractLicense(contract).identifier}
Requires-Python: >=${pythonFloor.join('.')}
Classifier: Programming Language :: Python :: 3
Classifier: Typing :: Typed
Description-Content-Type: text/markdown

# ${pythonDistributionName}

${summary(contract)} Generated from version ${version} of the contract; standard library only.
`;
}

function recordHash(data: Buffer): string {
  return `sha256=${createHash('sha256').update(data).digest('base64url')}`;
}

/** The wheel: the import package at the root, and `<name>-<version>.dist-info/` with METADATA, WHEEL, LICENSE and RECORD. */
function writeWheel(contract: ExecutableContract, staging: string, target: string): void {
  const version = contract.model.documentVersion;
  const root = path.join(staging, 'wheel');
  const files = writePythonPackage(contract, root);
  const distInfo = `${fileStem(version)}.dist-info`;
  mkdirSync(path.join(root, distInfo), { recursive: true });
  const metadataFiles: [string, string][] = [
    [`${distInfo}/METADATA`, coreMetadata(contract)],
    [`${distInfo}/WHEEL`, `Wheel-Version: 1.0\nGenerator: src/clients/python/package.ts\nRoot-Is-Purelib: true\nTag: py3-none-any\n`],
    [`${distInfo}/LICENSE`, licenseNotice(contract, pythonDistributionName, version)],
  ];
  for (const [name, text] of metadataFiles) writeFileSync(path.join(root, name), text);
  const listed = [...files, ...metadataFiles.map(([name]) => name)];
  const record = `${[...listed.map((name) => {
    const data = readFileSync(path.join(root, name));
    return `${name},${recordHash(data)},${data.length}`;
  }), `${distInfo}/RECORD,,`].join('\n')}\n`;
  writeFileSync(path.join(root, distInfo, 'RECORD'), record);
  writeZip(target, new Map([...listed, `${distInfo}/RECORD`].map((name) => [name, path.join(root, name)])), { date: clientPackageDate });
}

/** One file's 512-byte ustar header. */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  if (Buffer.byteLength(name) > 100) throw new Error(`The sdist path ${name} is longer than a tar header's 100 bytes.`);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  // The same fixed day as the wheel's entries, so the same files make the same archive.
  header.write(`${Math.floor(clientPackageDate.getTime() / 1000).toString(8).padStart(11, '0')}\0`, 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

function writeTarGz(target: string, files: ReadonlyMap<string, Buffer>): void {
  const parts: Buffer[] = [];
  for (const [name, data] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    parts.push(tarHeader(name, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  writeFileSync(target, gzipSync(Buffer.concat(parts), { level: 9 }));
}

/** The sdist's own build backend (build_backend.py beside this file), standard library only. */
export const pythonBuildBackendFile = path.join(import.meta.dirname, 'build_backend.py');

/**
 * The sdist: PKG-INFO, pyproject.toml, LICENSE, the package under `src/`, and the build backend
 * pyproject.toml names, in the sdist itself (PEP 517's `backend-path`) and requiring nothing, so
 * that `pip install --no-index <sdist>` builds it in a fresh virtual environment with no network.
 * A setuptools backend would need setuptools from an index: pip builds in an isolated environment,
 * and Python 3.12's virtual environments hold no setuptools at all.
 */
function writeSdist(contract: ExecutableContract, staging: string, target: string): void {
  const version = contract.model.documentVersion;
  const root = path.join(staging, 'sdist');
  const files = writePythonPackage(contract, path.join(root, 'src'));
  const stem = fileStem(version);
  const pyproject = `# Generated from version ${version} of the contract by src/clients/python/package.ts. Do not edit.
[build-system]
requires = []
build-backend = "build_backend"
backend-path = ["."]

[project]
name = "${pythonDistributionName}"
version = "${version}"
description = "${summary(contract).replaceAll('"', '\\"')}"
requires-python = ">=${pythonFloor.join('.')}"
license = { text = "${contractLicense(contract).identifier}" }
classifiers = ["Programming Language :: Python :: 3", "Typing :: Typed"]
`;
  const entries = new Map<string, Buffer>([
    [`${stem}/PKG-INFO`, Buffer.from(coreMetadata(contract))],
    [`${stem}/pyproject.toml`, Buffer.from(pyproject)],
    [`${stem}/LICENSE`, Buffer.from(licenseNotice(contract, pythonDistributionName, version))],
    [`${stem}/build_backend.py`, readFileSync(pythonBuildBackendFile)],
    ...files.map((file): [string, Buffer] => [`${stem}/src/${file}`, readFileSync(path.join(root, 'src', file))]),
  ]);
  writeTarGz(target, entries);
}

/** Writes the wheel and the sdist of the package generated from `contract` into `outDirectory`; returns the wheel's path. */
export function packPythonClient(contract: ExecutableContract, outDirectory: string): { wheel: string; sdist: string } {
  const staging = mkdtempSync(path.join(tmpdir(), 'python-client-pack-'));
  try {
    mkdirSync(outDirectory, { recursive: true });
    const version = contract.model.documentVersion;
    const wheel = path.resolve(outDirectory, pythonWheelName(version));
    const sdist = path.resolve(outDirectory, pythonSdistName(version));
    writeWheel(contract, staging, wheel);
    writeSdist(contract, staging, sdist);
    return { wheel, sdist };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const projectDirectory = path.resolve(import.meta.dirname, '../../..');

export const pythonClientPackage: ClientPackage = {
  language: 'python',
  registry: 'pypi',
  pack: async (outDirectory, options = {}) => packPythonClient(options.contract ?? (await loadGatedContract(projectDirectory)), outDirectory).wheel,
};
