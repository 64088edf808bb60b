import { describe, expect, it } from 'vitest';
import { computeRoi } from '../../clinical/index.ts';
import { buildRoiMailto } from './mail-report.ts';

const defaults = { numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 };

describe('buildRoiMailto (docs/product.md §7: mail client, subject and body, no recipient)', () => {
  it('the defaults, exactly', () => {
    const url = buildRoiMailto(defaults, computeRoi(defaults));
    const body = [
      'ROI & Safety Calculator estimate (sugammadex vs neostigmine)',
      '',
      'Inputs:',
      '- Number of cases: 100',
      '- OR cost per minute: 45 SAR',
      '- Time to TOF ratio >= 0.9 with neostigmine: 15 min',
      '- Time to TOF ratio >= 0.9 with sugammadex: 3 min',
      '- Baseline PPC rate: 10%',
      '- PPC risk ratio (fixed, 2025 systematic review): 0.62',
      '',
      'Results:',
      '- Time saved: 1200 min (20.0 h of OR time freed)', // (15 − 3) × 100 = 1200 min; / 60 = 20.0 h
      '- Cost saved: 54,000 SAR (OR capacity freed, not cash)', // 1200 × 45
      '- PPCs avoided: 3.8', // 100 × 10% × (1 − 0.62)
      '',
      'Impact summary:',
      'Across 100 cases, reversing with sugammadex instead of neostigmine ' +
        'frees about 20.0 hours of OR time (54,000 SAR of OR capacity) and ' +
        'avoids an estimated 3.8 postoperative pulmonary complications.',
      'Most OR cost is fixed, so "cost saved" is OR capacity freed for other cases, not cash returned to the budget.',
      'OR-time savings appear only when a TOF ratio ≥ 0.9 is verified with quantitative monitoring before extubation.',
      '',
      'Estimates for planning only. Results depend on the figures entered ' +
        'and on local practice; they are not a guarantee of savings or ' +
        'outcomes. Decision support only: confirm every decision against the ' +
        'product information and clinical judgement.',
    ].join('\r\n');
    expect(url).toBe(
      `mailto:?subject=Sugammadex%20ROI%20%26%20Safety%20Calculator%20-%20estimate&body=${encodeURIComponent(body)}`,
    );
  });

  it('has no recipient, and every part is percent-encoded (no raw space, &, line break or ≥)', () => {
    const url = buildRoiMailto(defaults, computeRoi(defaults));
    expect(url.startsWith('mailto:?subject=')).toBe(true);
    const [, query = ''] = url.split('?');
    expect(query.split('&').map((pair) => pair.split('=')[0])).toEqual(['subject', 'body']);
    expect(url).not.toMatch(/[\s≥"]/);
    expect(url).toContain('%0D%0A'); // CRLF line breaks (RFC 6068)
    expect(url).toContain('%E2%89%A5'); // ≥, UTF-8
  });

  it('carries the figures of other inputs: 200 cases → 2400 min, 108,000 SAR, 7.6 PPCs', () => {
    const inputs = { ...defaults, numberOfCases: 200 };
    const body = decodeURIComponent(buildRoiMailto(inputs, computeRoi(inputs)).split('&body=')[1]!);
    expect(body).toContain('- Number of cases: 200');
    expect(body).toContain('- Time saved: 2400 min (40.0 h of OR time freed)');
    expect(body).toContain('- Cost saved: 108,000 SAR');
    expect(body).toContain('- PPCs avoided: 7.6');
  });
});
