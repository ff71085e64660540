import { isIP } from 'node:net';

/** The eight 16-bit words of an IPv6 address (with an optional trailing dotted IPv4), or null. */
export function ipv6Words(address: string): number[] | null {
  if (isIP(address) !== 6 || address.includes('%')) return null; // zone ids: link-scoped, never public
  let text = address.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] && dotted[2]) {
    const bytes = dotted[2].split('.').map(Number);
    text = `${dotted[1]}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headWords = head ? head.split(':') : [];
  const tailWords = tail ? tail.split(':') : [];
  const missing = 8 - headWords.length - tailWords.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const words = [...headWords, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailWords].map((word) =>
    parseInt(word, 16),
  );
  return words.length === 8 && words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff)
    ? words
    : null;
}

/** The /64 network of an IPv6 address (one subscriber's usual allocation), as text: `2001:db8:1:2::/64`. */
export function ipv6Slash64(address: string): string | null {
  const words = ipv6Words(address);
  return words
    ? `${words
        .slice(0, 4)
        .map((word) => word.toString(16))
        .join(':')}::/64`
    : null;
}
