import Foundation

/// A real APNG from another program's test suite: apngasm's `test/samples/penguins.png`
/// (https://github.com/apngasm/apngasm, commit f18f900), 76×76, 6 frames of 120 ms, looping
/// forever, 5,753 bytes. apngasm is distributed under the zlib licence, whose notice follows:
///
///     This software is provided 'as-is', without any express or implied warranty. In no event
///     will the authors be held liable for any damages arising from the use of this software.
///     Permission is granted to anyone to use this software for any purpose, including
///     commercial applications, and to alter it and redistribute it freely, subject to the
///     following restrictions: 1. The origin of this software must not be misrepresented; you
///     must not claim that you wrote the original software. If you use this software in a
///     product, an acknowledgment in the product documentation would be appreciated but is not
///     required. 2. Altered source versions must be plainly marked as such, and must not be
///     misrepresented as being the original software. 3. This notice may not be removed or
///     altered from any source distribution.
enum RealWorldAPNG {
  static let penguins = Data(base64Encoded: base64.joined())!

  private static let base64 = [
    "iVBORw0KGgoAAAANSUhEUgAAAEwAAABMCAMAAADwSaEZAAAACGFjVEwAAAAGAAAAAAYNNbAAAAAwUExURQAAAP///9bW1szZ",
    "71tcXZ+33NDr+wICArfH4uju993k8fP2+YSIi3d4eTEyMpydnnTVUKsAAAABdFJOUwBA5thmAAAAGmZjVEwAAAAAAAAATAAA",
    "AEwAAAAAAAAAAAAMAGQAAKxwZy0AAARxSURBVFjD7ZfrltsqDIUbA0YYgd7/bc+WAMf3Sdr5ebS6HA8yX7eEuP2Jv2h/4uvX",
    "7H/Y15Z/G5ZSzvmfIEszB5hzDm9/ics5pcV1azDgHmGLeF9jrEXS3jGJr+rwTDvYPY08Pq/VWz+/4e0clWmFpbvU5aKKhhV0",
    "kzvHgGnaADzTSMXsrMZy5xiwJi+fWVWO5qO/duxgyWLdl867S1GzN4586djBDLeDlbhmhduTu7YrxwF2SBsh2b1TIXNkaRou",
    "HQfYOhItXl8BtE5l0g7ay2g+TheOM+wd8GuKInnRPkwoUJRUQCfWhugvHLcwlcdIDVs4KIakhRTR1yD1ynELU3HeaxVYXqyu",
    "YKwKkOty5biHIXWRMWgTkH7XZ2KL8+y4gvUVJU2RUFHeDGnGRIzV0m1x1rPjArYMmMSUsSyYiQ4+y2JLRRvPs2MLW1ZMm/Uc",
    "MeRUh4DVrEoxy08Ogy0bS6mjMspfvwyleM3zagHCuGAETg7AVkjemZZs6KvpdoalwoVlmqo/OQDTlbdJ2VvCSK6mcqedYRIc",
    "HQ+7U4g0PZjEcGx6gJU6PVrkL2DVP8PO/idYucMEi9/XL2A9jJ442abLnj0N8hmsbD8+w/jvYeEEk3h0/DwAZ2UStrDPlPl6",
    "DZPRcoTJA0yibMMMB9YYgI3jAYatSW0fnAgd6+zteIAtUfbzR402QcnR8XRy9I/zKZ4nyBNsivc0bFz0HazoOSfo7liwpmJN",
    "XHNd4Tk77mGZGV3q4UJTsbza76XjFsYap57BQqBuIXjFexyD9KSoeQ9qbX+p93enSTfCTE0/ODRZNw8J+Et4O72QPVLHLYxf",
    "CXv6y7YtXcOP5uDvgvV1nLZ/gOFroLSPmfXGc9nB2ssXsLdp2/Ja276AIf+Bk46CJVuf2qYw+9tg5gq3sKQ0wEi/X84w12Ht",
    "9QdYk9Zhr3+FTWxxag+xrym1sBosXMPyci/NYHIFg1p3AUtys55xh5XQYBboiJZey4CR2yiTfCdNRwBziF6rKJPVCEPPAZZu",
    "YYR/XPYweoK9eHmElYKvMR2lJc25R5hMp+UnaOQLJ8KcKWww32H0CJtF5rdxwcOxc/qusMD4PJH4MZzLM4wbx4mte7EE8uRK",
    "5KZMDFbQapVFYwTaEFvLBkYyez3Y6127iN6VS3BYn6JHbbjMVmJFPoSFqHfs9QgV7IrscZ4GTJLBuIQjbCDQ4laYI+yntZJs",
    "tknSjSLGQML5AHNrbaQw5ukbNucFR/DzbgZlONa9TBmug9cwd4TRYete5ekVJZkyFXYPozdM+qlawvm8Gd2cJ4yjCgtkU3sD",
    "o17CG9jQxdtQx0k6uozrDbN93GBt3biDjaA2sLAeShAphcx0hGmmBixswmxnSXGbMPuhCyMcA64us8FQdK6tRGvanWuRuwEj",
    "Fl0AaRaFqD5UsdNfCfhlDDdU29W47XXOdc7O+uJoU8mluf0fUBMwMZ3xYdCBnSzN7mcbMFhK7+nejxBuBhbN7RL5CWz+xJz7",
    "TNmvsRT2i/YfmJptdblzzF0AAAAaZmNUTAAAAAEAAAA6AAAAQQAAAAEAAAAJAAwAZAABDQ7/VQAAAuxmZEFUAAAAAljDxZbr",
    "lusgCIUVJWK88P5vO6BJYzvRdM6fw5ppc/ELCBtSY57NXmb+ZNYmyt6EYDzDX2hZyyGEWr33VQ7ybr8mwYT6Oi1CZ/slKS7f",
    "L/lQ0pfk6ZLVOuu/YC1d5MFr1KGUZ6c+5NNn5qKmrP/CaQ4A+SAhSXoSN7aah1TZFEovI3OJhyJQWW/yGo0cYJe1giqJpZCw",
    "DQoP8UZTa41QhARj+UhWVLf1gdxDMQFtlnCTsS039ch1McscRwpsAoGRtNpOtVK1xIVlliOGPQRsx6TVFFNfTQ9rNHEwnHsq",
    "RT+x1Fp2vZ7N02Zt0fvSMPrfXLUPKwGrqHiFekXJq9FQ7CIgl8ArFUpSRAXJMMZhTjQ9Zq6Lzdqo+o0xvaAkFrWDqOkYVgJe",
    "ZSIv0BSWVafFZnnqFECpxZN9L90R1hgdGBKhLPJUzRw1vO53XqNlLqgwQ6Gji2avLQ18oXiRSEsJ+wojCgbxJNte5hVQP7p+",
    "CJP1E8wzakXhzOMWqbvs0xgWaZLH8seWsF9oD4SV/ulGpe3tQU1Qq66TSQQf9ood6Jww+by481uQGSZ2dRWkS0E8ePVehrDO",
    "fhkU0t5MII2ege8yRLTxkKfBav/SesvJXYqAhncnMBEi7SnpJNyBSGZSqAzmfxrz44ppgBTHvb49KA2Ne/fMnKYx8Dqk9CHT",
    "N1TfL0TzKT9HifF79CbCFTqyjL8WoPlXFHH1ShtyBSyHKf1Gb58gaMrnFgGj1st+h26bNOaJoiaFWa4dQqEF2dD+vW2ONtwO",
    "c2OWpui5etN+faH58ko536OXobnQTVe7jnKkB3LjfUSjiweKz15zPFDHbkTpvri3KBUa0IkW3wLOKf4KGL9DeUQxxyihymBb",
    "orK1T9Q5QZ3MxGnv9GXF9bKmjdxZVqWdRjxFkTbVDOiyGLcdXXJM8qfjXmGcNY8IThEn3uIeW6Aiu11+4UWzk5Ezxd0t+iFl",
    "/c1/bldvuhU8Nfey29s/Ygcg06KD+sUAAAAaZmNUTAAAAAMAAAA7AAAARAAAAAEAAAAFAAwAZAABw114GwAAAqpmZEFUAAAA",
    "BFjDxZftsuMgCIaRYNQoeP93u2A+mnM20aT7Y9/pTOLURxABW4ChlkoSQhCqC7xTZMOIG0/xDUlBuO5iCeSfoiVIqT8koTxD",
    "a6D6W/QM9kE+7prnsFquYzRvKBjpIzPvbucHmz2MxuycW2DdexkbToG4GYWCbhUwmNtC40DBwoZydA7BK5tXGEIasIEQzDBw",
    "dqB5wQpHtkVLGBheggYUWc2qRcupsDiX2vkMtxuVpUwmWFkEcFAf5oWeUWMJ2Woht+xe4f4SJNVqYDWcC9FigY4tAiMROY8r",
    "Kt6pu00tuzSOmjkdVkSn+s3szuZ24syigZf7UIlYLiWERZ+wsZULlwoeqjfb14ESLVvM7pCyOWdUj3GXyG3t4Ujl2rBQh4Ht",
    "Wa/ZMLaKyNJl4Wznt26qiQQxGgbXHusUpBBvmk3BGPHii61Lag1Due+PfMWCXxtJtHDepYa61GnEihHg/de9pqQ7poCdbtWr",
    "lz7bWlOHDff7teTqsawp0G2Ta1ROATpea+BOrOxW+AXg6fwJeqzT26hs89eU2CfrdUZWi509OetweoVya5JBWvMSe7SbsM/q",
    "DaTtToK1Rl9563uk68ADVpuMtPvgLGCLBHZZiOVGbb/+MHGy9SkIG6ULcSA5ube/tM8+mJZl+kve37TIH3aPeo/RR/S7dFTL",
    "DXyqB9csmec2+gj+s85OXmtyz+CfK62D6Drpc89O/d+errOD5OLXu/8X9pWqr9+z7j3rjiaG7qXj7lyEbzc9z8fLfBrByzXm",
    "b2N1y3r/NRtfs5/DfsW2mMUnh132SVM5s490eBR5/jrOsX7B7kj5sMdLGaFt5qyR3eH5CWuxnSEpPk95ivNZ08jdpH+nc8op",
    "LZjBR23iOc22yIPETovXVr91e300YJrGQfoDECAfKDkWjPcAAAAaZmNUTAAAAAUAAABIAAAARwAAAAMAAAACAAwAZAIBS4+i",
    "SgAAA5ZmZEFUAAAABljD7ZfrduMqDIUFhYCNBO//tmeLi8FxMpPkzKzOj2p1NUkdPqStC5ToYpZzDrDsyk4f28aKgLlKc/ZD",
    "TgFFymEuB0kfYJILuZxN4JTp9jpIgpSL5XCQzMscvnIKBZfMWygO7gEGFsS8Q0r3+lDD6A48QVssmtCMnGzbvu9faidQvAo0",
    "HuVQBoZJCwyWA3YA6quZrAo940zBQZnhcw7ONwwvDu2XzE8OSA6YJCFTDXk8zoHVJa2aA/R1LzWzHByPuMm4IP3zsQv+pBxZ",
    "Oyw4WUSq70X6OrEcLGIf4Lm/wx9PHPJBbDnqSGIyZCyxriO21iJTcoBI1PQDaQalnLoMetpOkq1nKXJzyNoSXJ8FRWjXEt2p",
    "RgDd4kqqIFPqM6ajbKxQA0FYLKjpjdSfe6l5oA1fWkEpmcQ1Lv1WsuSxMb7LHiDrUUytThThZOyr0q2q+eBRrbZGgvVRdByx",
    "gkgdqiphIThbraeQd0O7ukRZXVsKGwUW2CJ3+GpqM9KbTUrnQKXdM2nY7ak6WGuMEqScImHwMEdXjUxxUuKmGknsIBtY9CEE",
    "yFTd1T5UkGUsWVpEg24gbm2O38z2sFybzKHvXAAJItXYUI/uDPIHSFVSUrKLUQex9m7lGdKkcu3iZViz3czWIqOHo8eF4dEx",
    "nGq5rCAMtbYrqptLTf9WymXyFUZ6Fk4r4CAQb6TMLTFszUd/GaHZmNOs3Gr5Ckoy9bPGZXtSo4IuM9RlrIUlNUW13kTIM/V8",
    "B8LP4lB/m2dqxm495Akq9kyyNsbJKWO7g7JykCg/nbb3RsuEHBvHuc9dEmZ/ZFanfBlftGN9OUQ/RXY+5+fMxvirzbVuGeto",
    "ikvBXkD95TQik43FL6Jfrhc50DPQ4us8tJ+A0DtTiXuQ1sVTUpXuiAwHTg7xlPw4QUv+F1LWY8lrwYZmWa9cLkxF+z7IwgBl",
    "ul7IhuzUDw3PSsziT8VoW0KjHQfQo5tdwomO0bBcHEimCicF26mLyH5xQzz1p8HRYB8mtH6e6v0WlYI8LYwH2X+EOtrgKUlC",
    "eeeiWk9m3Cb8fU/mdvt4nRTdKAapdxVm3NzqFrVO3nEqRj1XA1ZSqzA9JuorhxekxjVxN/Oa6FHlWrSR4phWmF2R6cd+7F+1",
    "t/5J/CWIzD/m0Y99m21f3wa63e7ffGh/DHQl/hWQ/xZQI9xu/yu222J0w7Fcrb/6Ya+CRlTDpQ9c+w98QTXNzfXnHAAAABpm",
    "Y1RMAAAABwAAAEoAAABEAAAAAQAAAAUADABkAgFeG5pkAAADcGZkQVQAAAAIWMPtl9168yAIgNFhMQnI/d/tB5ofkyxd2/V7",
    "toNxsKXRvvyjBfhSwibwLQl7eRvoG7AQ3sU6QoYkWIAK6tjWp2Ecxw+X50gTE5VSELEQEQ/+ahiGispqOh4mKRHW92oiRuPK",
    "HwyU0JU8igKhAjqjKq0QDhU2SlWij5HASOKI1Sz7IISTrUWcrb2Hgo3ETppZwsxSoSSWCiRW/TLoCwsyFFlskWpV3YKUA9Ls",
    "9IPtgiXkxhKYWhLqJkJt5upVqD64UJFxZSWKYahfkeSBXsvUMicwsz6RzLYBPd28wLBoDs2oEEYsRd0uMb+IpjCyr3A+cKyc",
    "rUQ4uggQZCeNZJUQkmkXS79tINAAk6OQdJjcLE67hspWIFQ0rmJ+knpxWp1PmatREzkK3W1/YR4GR8nUG4TWXCnuJZubgYtS",
    "Gdk6RmcUOWpwx0x3UHtIHcl80Cwme5rXppRIKOhiUQdH1ehLrXkYfWlDsUd6FhZplAYzi9AeKwm97zJzLRXPqeVQmpK8JnUp",
    "wZZY1th57u5MDaV9f1e9xPPKQkLdiynufbfEjSwoPSlKdYBkUdJIciCBl/UmReoImKZ+elkLmfGxYJyVeP+cSHWKdHYxLU+D",
    "S3uMsf5BK9KmA2Cy1H0m3PUCnfsixhZOpbRqUNLPpXOxYGdJ4ywkoM38C6N2rHVwr+W2QHVVY4vnSJ1RUs7+LajtfLj0D7pm",
    "Vzp0/Yrq1Ui5RG1D6ITSDcUrqlyGqvOQDyjQzcFNTcEHUKfzMs+dpblDEV77J8di2IKeIDdHV1S8RPVWpUOJ1mrwIlZ7nMNu",
    "rx6J1d6ouBWof6qL9QXeQeV5YoEehmufAILlDdMliZfZh3BJgu6Uv1ft7XtU6NIqJuwOrcse5AqwC0u9xLRT3macH/Qz0Sd7",
    "j9Yrs9ouS1626V6oEzsgbaLXghNxbnI1MN93riIllA1lIiml3CQlsWzZ5ayH08Votzhhs5pqQfQj1evMz0w/nO2oszI1SWne",
    "IrsDhzl51mKLVH7yKpzNMJE12HbAY3ESEj99rR78umC2WYr8osBi5zH7ZeaVO7r1uuE8VRinmlgLdX75Z0i9NK+GvM75k6d/",
    "ar0NBeEXWvUnv0CGjx9F3W7Hh5fljagz8z+h0o+hGuN2+6aHDrjlRWD//wXU4tti1gvm/QMIUEXLJKQkXQAAABpmY1RMAAAA",
    "CQAAAEkAAABFAAAAAgAAAAUADABkAAECEfL6AAADkmZkQVQAAAAKWMPFmO2W4yAIho3VRSPI/d/tvpCPNm2TOrM9Z/nRaRN8",
    "BETQCeGTTHcJ/yLTUb7F+T1rmr6EmqZr1NTqfNMUOlFPPAiaVZIPCHVD4WmbBc9CSAkvh0AxYEDv0ActaN3e4nFyXYWMkBgD",
    "TNWVpQfi5aWYPZvoZ9CcnLOjgnaSBSSD4V5gNREb5I5SlZDMUtkcU2HmK5vCMvPGsQEiPhbmFOqyOiUyEqVAsmKUfQBY+JOw",
    "AlMRn0K0XeVZW0AVIVlRkpuvfPDfRHGqsjxf1M9IdVu2Ns3sFpWNnwXuInplWmawRen91L9a62KS1mZTM2aOGODxEzeqG1MF",
    "eokgZ6Rbra01JVndkxZsVxCVafEKP1pgN6mFK9IMo2BNR/ZNigFmkul7KqnZQn1mbBP9QHJQbT0JpVkw4EDyyFkW4EXIvglO",
    "SPNspNAacSY2UEplC4etn6z7zF4wHhTm+D7azQRzU56yOsi9UCSTbyAjJVpIF0kZFoytt1kQdtIubpJQhrmygaYT0jJCbaWm",
    "4AMeSx1IHBglAZr3bXpVBrDnnLmR17wXEdYYUfYixNfmU0FJ/Z6nTwOASDRev1M/vohxx+CrUh5GrbX1YMlCcSbxaFdp50XR",
    "ST2NNqhAz7miR1IP93zM56TWCpVLkgySalU6Ay0kfiRduNdQCc5NMgRmimOBSmek+IYUr0gva6M7qOSVFJ9S7T2qy5OWlrtB",
    "FnHa3sUYL/3rKT6JZnzkrbu5zWuqHiUnkvnhd+qb2o4qqCdbaii9LU3QQTfkjjPA3HbVUOI7WU16u4NxDqJkw9gaCAobOr3Y",
    "V40nAovJuldw5b2dW3nfp7dDV/eO1KEtuoTGi9Kuk60X3GXvCAC9cUP8qPYimCX4yWw5DIUM4RWETvRs+pp6HYUjK8OY4CcW",
    "XhsNZ7S7h71TijVEgE6DETvp+Al3Jo7nMlSD9mjHK/mBUS9BOkqiNghql879xKh4Ee+fReo9KTy6N0zK8UOghpPgW961L5Lk",
    "A0l+kU/hMdJ7FvAoaauMZ3VoPMnlmsQDJ5JVmL6TBB93cO//gZSpXJFkPE7lQ2qOZ8GNwndy3Fpg+Q4pwz3cb/UVl9H5kAbD",
    "IcetyK+Or4LOykYaDXm+5f3SvF3C72Kk8dW79cT6VmBX4VsfW736B1LsDs8HUb9pFhzecuplCGUk48E2yB98+kP89PuKXxx/",
    "8S+nepD5J4y/Ppw00EMO9MkAAAAYdEVYdFNvZnR3YXJlAGdpZjJhcG5nLnNmLm5ldJb/E8gAAAAASUVORK5CYII=",
  ]
}
