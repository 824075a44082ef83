/**
 * The llms.txt proposal's reference parser (`miniparse.py` of AnswerDotAI/llms-txt), its rules
 * written again in TypeScript so the tests read our file the way that parser does: the text is
 * cut at every line starting with `##`; what comes before must be `# title`, an optional
 * `> summary` line and free text; every non-empty line of a section must hold a
 * `- [name](url)` link, optionally followed by `: notes`. Where the Python parser crashes (no
 * title, a section line that is not a link), this one throws, naming the line.
 */
export interface LlmsTxtLink {
  title: string;
  url: string;
  desc: string | undefined;
}

export interface ParsedLlmsTxt {
  title: string;
  summary: string | undefined;
  info: string;
  sections: Map<string, LlmsTxtLink[]>;
}

export class LlmsTxtParseError extends Error {}

const sectionHeading = /^##\s*(.*?)$/m;
const linkLine = /-\s*\[(?<title>[^\]]+)\]\((?<url>[^)]+)\)(?::\s*(?<desc>.*))?/;
const preamble = /^#\s*(?<title>.+?)$\n+(?:^>\s*(?<summary>.+?)$)?\n+(?<info>.*)/ms;

function parseLinks(sectionTitle: string, body: string): LlmsTxtLink[] {
  return body
    .trim()
    .split(/\n+/)
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const groups = linkLine.exec(line)?.groups;
      if (groups === undefined) throw new LlmsTxtParseError(`section "${sectionTitle}": "${line}" is not a "- [name](url): notes" link`);
      return { title: groups.title ?? '', url: groups.url ?? '', desc: groups.desc };
    });
}

export function parseLlmsTxt(text: string): ParsedLlmsTxt {
  // A capturing split keeps the heading texts: [start, title, body, title, body, …].
  const [start = '', ...rest] = text.split(new RegExp(sectionHeading.source, 'gm'));
  const sections = new Map<string, LlmsTxtLink[]>();
  for (let index = 0; index < rest.length; index += 2) {
    const title = rest[index] ?? '';
    sections.set(title, parseLinks(title, rest[index + 1] ?? ''));
  }
  const groups = preamble.exec(start.trim())?.groups;
  if (groups === undefined) throw new LlmsTxtParseError('the file does not start with "# title", a blank line and more text');
  return { title: groups.title ?? '', summary: groups.summary, info: groups.info ?? '', sections };
}
