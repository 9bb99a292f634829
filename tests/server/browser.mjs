// What the two web test files share: Debian's Chromium ($CHROMIUM, default /usr/bin/chromium)
// launched headless by playwright-core, with nothing of its own reaching the network.
import { chromium } from 'playwright-core';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
