interface SystemNeedEntry {
  why: string;
  present(): boolean;
  packages: string[];
}
export declare const SYSTEM_NEEDS: Record<'ffmpeg' | 'pocketsphinx' | 'chromium' | 'python', SystemNeedEntry>;
/** The one apt-get command that installs the tools named. */
export declare function installCommand(names: (keyof typeof SYSTEM_NEEDS)[]): string;
export declare function missingNeeds(): (keyof typeof SYSTEM_NEEDS)[];
