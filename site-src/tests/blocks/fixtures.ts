// Props of the content-block islands for the component and parity tests: the shapes
// generator/src/blocks.rs produces, with awkward text (quotes, ampersands, markup characters).
import type { AccordionProps } from '../../src/features/blocks/accordion';
import type { AnimatedTextBannerProps } from '../../src/features/blocks/animated-text-banner';
import type { BenefitBarProps } from '../../src/features/blocks/benefit-bar';
import type { CarouselProps } from '../../src/features/blocks/carousel';
import type { CountdownProps } from '../../src/features/blocks/countdown';
import type { FooterColumnsProps } from '../../src/features/blocks/footer-columns';
import type { MegaMenuProps } from '../../src/features/blocks/mega-menu';
import type { MobileMenuProps } from '../../src/features/blocks/mobile-menu';
import type { StickerProps } from '../../src/features/blocks/sticker';
import type { MenuNode } from '../../src/features/blocks/schemas';

export const benefitBar: BenefitBarProps = {
  items: [
    { text: 'Free UK delivery over £50', link: '/delivery', openInNewTab: false },
    { text: 'Gift cards & "e-cards"', link: '/gifts', openInNewTab: true },
    { text: 'Made in <London>', link: null, openInNewTab: false },
  ],
  backgroundColour: '#1d1d1b',
  textColour: '#ffffff',
  tickMs: 3500,
  resetMs: 750,
};

export const benefitBarSingle: BenefitBarProps = { ...benefitBar, items: benefitBar.items.slice(0, 1), backgroundColour: null, textColour: null };

export const countdown: CountdownProps = {
  startDate: '2026-11-20T00:00:00Z',
  endDate: '2026-11-22T12:00:00Z',
  text: 'Sale ends in',
  link: '/browse/collection/504',
  backgroundColour: '#b3262d',
  textColour: '#ffffff',
};

export const accordion: AccordionProps = {
  heading: 'Delivery & returns',
  items: [
    { title: 'When will it arrive?', bodyHtml: '<p>Orders placed before <strong>8pm</strong> ship today.</p>' },
    { title: "Can I return it?", bodyHtml: '<ol><li>Fill in the form</li><li>Post it</li></ol>' },
  ],
};

export const footerColumns: FooterColumnsProps = {
  columns: [
    { title: 'Help', links: [{ text: 'Contact us', link: '/help/contact-us', openInNewTab: false }, { text: 'FAQs', link: '/help/faqs', openInNewTab: false }] },
    { title: 'About', links: [{ text: 'Careers', link: 'https://jobs.example/', openInNewTab: true }] },
    { title: 'Legal', links: [{ text: 'Terms & conditions', link: '/terms', openInNewTab: false }] },
  ],
  multiple: false,
  open: false,
};

const link = (url: string, title: string, extra: Partial<MegaMenuProps['topLevelLinks'][number]['link']> = {}) => ({
  url,
  title,
  textColour: null,
  textBold: false,
  underline: false,
  featuredText: null,
  titleSuperscriptText: null,
  ...extra,
});

export const megaMenu: MegaMenuProps = {
  topLevelLinks: [
    {
      link: link('/browse/womens', 'Womens'),
      columns: [
        {
          linkGroups: [
            { title: 'Clothing', links: [link('/browse/womens/dresses', 'Dresses', { featuredText: 'New' }), link('/browse/womens/knitwear', 'Knitwear', { titleSuperscriptText: '2' })] },
            { title: null, links: [link('/browse/collection/501', 'The Party Edit', { textColour: '#b3262d', textBold: true, underline: true })] },
          ],
        },
        {
          jumpOff: { image: { url: '/media/nav.svg', alt: 'A dress' }, text: 'Shop New In', url: '/browse/collection/502', imageCaptionText: 'New In', imageAltText: null },
          linkGroups: [],
        },
      ],
    },
    { link: link('/browse/collection/504', 'Sale', { textColour: '#b3262d', textBold: true }), columns: [] },
  ],
};

const node = (title: string, url: string | null, children: MenuNode[] = [], extra: Partial<MenuNode> = {}): MenuNode => ({
  title,
  url,
  textColour: null,
  textBold: false,
  underline: false,
  image: null,
  children,
  ...extra,
});

export const menuItems: MenuNode[] = [
  node('Womens', '/browse/womens', [
    node('Clothing', '/browse/womens/clothing', [
      node('Dresses', '/browse/womens/clothing/dresses', [node('Midi dresses', '/browse/womens/clothing/dresses/midi')]),
      node('Knitwear', '/browse/womens/clothing/knitwear'),
    ]),
    node('Shoes & bags', '/browse/womens/shoes'),
  ], { image: { url: '/media/nav-womens.svg', alt: 'Womens' } }),
  node('Mens', '/browse/mens', [node('Coats', '/browse/mens/coats', [node('Parkas', '/browse/mens/coats/parkas')])]),
  node('Sale', '/browse/collection/504', [], { textColour: '#b3262d', textBold: true }),
];

export const mobileMenu: MobileMenuProps = { prefix: '', items: menuItems, resetMs: 500, maxCategories: 12 };

export const carousel: CarouselProps = {
  title: 'Trending "now"',
  titleColour: '#1d1d1b',
  backgroundColour: '#ffffff',
  loop: true,
  loopedSlides: 4,
  slidesPerScroll: 1,
  arrowsMinCards: 5,
  cards: ['Knitwear', 'Coats & Jackets', 'Dresses'].map((heading, i) => ({
    heading,
    subheading: i === 0 ? null : 'Wrap up',
    textColour: i === 1 ? '#1d1d1b' : null,
    backgroundColour: '#f4f1ec',
    link: `/browse/${i}`,
    clickable: i !== 2,
    image: i === 2 ? null : { url: `/media/card-${i}.svg`, alt: heading, srcset: `/media/card-${i}.svg?w=415&fmt=auto&qlt=default 415w` },
    ctas: i === 0 ? [] : [{ text: 'Shop now', link: `/browse/${i}`, style: 'tertiary', buttonType: 'button' as const, customId: i === 1 ? 'card-1' : null }],
  })),
};

export const sticker: StickerProps = {
  url: '/browse/collection/504',
  width: 400,
  height: 300,
  marginRight: 24,
  marginBottom: 96,
  image: { url: '/media/sticker.svg', alt: '' },
  template: 'circle',
  backgroundColour: '#efdc84',
  closeButton: { top: 4, right: 4, size: 32, colour: '#1d1d1b' },
  textLines: [
    { text: 'Up to', top: 40, left: 52, fontSize: 14, colour: '#1d1d1b' },
    { text: '50% & more', top: 60, left: 44, fontSize: 32, colour: null },
  ],
};

export const animatedTextBanner: AnimatedTextBannerProps = {
  text: 'Free returns · "New" season',
  textFont: 'Georgia, serif',
  textColour: '#ffffff',
  backgroundColour: '#6d1f2f',
  speedDesktop: 24,
  speedMobile: 14.5,
  link: '/returns',
  ctaText: 'Returns',
  dividers: true,
};
