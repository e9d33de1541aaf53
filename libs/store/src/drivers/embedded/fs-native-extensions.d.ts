// The package ships no types; only the calls the data-dir lock makes are declared.
declare module "fs-native-extensions" {
  interface FsNativeExtensions {
    /**
     * Takes an advisory lock on the whole file open as `fd` without waiting: on Linux an
     * open-file-description lock (fcntl F_OFD_SETLK), elsewhere flock. False if another open
     * file holds it; exclusive unless `shared`.
     */
    tryLock(fd: number, options?: { shared?: boolean }): boolean;
  }
  const fsNativeExtensions: FsNativeExtensions;
  export = fsNativeExtensions;
}
